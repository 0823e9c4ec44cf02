/** Start/stop helpers for the example and runtime tests: real processes on 127.0.0.1, always stopped. */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { createServer } from 'node:net'

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

export function run(command: string, args: string[], cwd: string, timeoutMs = 240_000): void {
  execFileSync(command, args, {
    cwd,
    stdio: 'pipe',
    timeout: timeoutMs,
    env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false' },
  })
}

export interface Started {
  process: ChildProcess
  output: () => string
  stop: () => Promise<void>
}

/** Spawns a server in its own process group and waits until `ready` matches its output (or the port answers). */
export async function start(
  command: string,
  args: string[],
  options: { cwd: string; env?: Record<string, string>; ready: RegExp; timeoutMs?: number },
): Promise<Started> {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
    try {
      process.kill(-(child.pid as number), 'SIGTERM')
    } catch {}
    const timer = setTimeout(() => {
      try {
        process.kill(-(child.pid as number), 'SIGKILL')
      } catch {}
    }, 3_000)
    await exited
    clearTimeout(timer)
  }
  const deadline = Date.now() + (options.timeoutMs ?? 60_000)
  while (!options.ready.test(output)) {
    if (child.exitCode !== null) throw new Error(`${command} exited early (${child.exitCode}):\n${output}`)
    if (Date.now() > deadline) {
      await stop()
      throw new Error(`${command} did not become ready:\n${output}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return { process: child, output: () => output, stop }
}
