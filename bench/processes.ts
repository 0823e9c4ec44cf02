/** Child processes (each in its own process group, pinned with taskset), free ports, and readiness checks. */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { connect, createServer } from 'node:net'

const running = new Set<ChildProcess>()
let taskset: boolean | undefined

/** Whether `taskset` (util-linux) is available to pin processes to cores. */
export function hasTaskset(): boolean {
  if (taskset === undefined) {
    try {
      execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' })
      taskset = true
    } catch {
      taskset = false
    }
  }
  return taskset
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return
  try {
    process.kill(-child.pid, signal)
  } catch {}
}

/** Last resort: whatever happens to the bench, its children do not outlive it. */
export function installCleanup(): void {
  const killAll = () => {
    for (const child of running) killGroup(child, 'SIGKILL')
  }
  process.on('exit', killAll)
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      killAll()
      process.exit(130)
    })
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => resolve(port))
    })
  })
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })
}

export interface Child {
  name: string
  process: ChildProcess
  port: number
  stop(): Promise<void>
  /** Resident set size in bytes (from /proc). */
  rss(): number
}

/** Starts `node <args>` pinned to `core`, in its own process group, and waits until `port` accepts connections. */
export async function startNode(
  name: string,
  args: readonly string[],
  options: { port: number; core: number; env?: Record<string, string>; cwd?: string },
): Promise<Child> {
  const [command, ...commandArgs] = hasTaskset()
    ? ['taskset', '-c', String(options.core), process.execPath, ...args]
    : [process.execPath, ...args]
  const child = spawn(command as string, commandArgs, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env, PORT: String(options.port), NODE_ENV: 'production' },
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  running.add(child)
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000)
  })
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
      killGroup(child, 'SIGTERM')
      const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 2000)
      await exited
      clearTimeout(timer)
    }
    running.delete(child)
  }
  const deadline = Date.now() + 20_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}: ${stderr}`)
    if (await canConnect(options.port)) break
    if (Date.now() > deadline) {
      await stop()
      throw new Error(`${name} did not listen on ${options.port} within 20 s: ${stderr}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return {
    name,
    process: child,
    port: options.port,
    stop,
    rss: () => {
      const status = execFileSync('cat', [`/proc/${child.pid}/status`], { encoding: 'utf8' })
      const match = /VmRSS:\s+(\d+) kB/.exec(status)
      return match ? Number(match[1]) * 1024 : Number.NaN
    },
  }
}

/** Pins this process (all its threads) to the given cores; returns false when taskset is unavailable. */
export function pinSelf(cores: string): boolean {
  try {
    execFileSync('taskset', ['-a', '-p', '-c', cores, String(process.pid)], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}
