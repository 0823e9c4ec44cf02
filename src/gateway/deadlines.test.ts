import { afterEach, describe, expect, it, vi } from 'vitest'
import { DeadlineList } from './deadlines.js'

afterEach(() => {
  vi.useRealTimers()
})

describe('DeadlineList: one timer for every request timeout of a gateway', () => {
  it('fires what is still pending at its deadline, in order, and never what was removed', () => {
    vi.useFakeTimers()
    const list = new DeadlineList(100)
    const fired: string[] = []
    const a = list.add(() => fired.push('a'))
    vi.advanceTimersByTime(30)
    list.add(() => fired.push('b'))
    vi.advanceTimersByTime(30)
    const c = list.add(() => fired.push('c'))
    list.remove(a)
    list.remove(a)
    vi.advanceTimersByTime(50)
    expect(fired).toEqual([])
    vi.advanceTimersByTime(30)
    expect(fired).toEqual(['b'])
    list.remove(c)
    vi.advanceTimersByTime(200)
    expect(fired).toEqual(['b'])
    list.add(() => fired.push('d'))
    vi.advanceTimersByTime(99)
    expect(fired).toEqual(['b'])
    vi.advanceTimersByTime(1)
    expect(fired).toEqual(['b', 'd'])
  })

  it('arms one timer for many entries', () => {
    vi.useFakeTimers()
    const list = new DeadlineList(1000)
    const entries = Array.from({ length: 100 }, () => list.add(() => {}))
    expect(vi.getTimerCount()).toBe(1)
    for (const entry of entries) list.remove(entry)
    expect(vi.getTimerCount()).toBe(1)
  })
})
