// The built library's gateway on the embedded mock model, as a module worker: the same file runs on Bun, Deno and workerd.
// Exactly the README's form: the runtimes call it with their own second argument (Workers env, Bun's server, Deno's info).
import { createGateway } from '../../dist/gateway.js'

const gateway = createGateway()
export default { fetch: gateway.fetch }
