// The built library's gateway on the embedded mock model, as a module worker: the same file runs on Bun, Deno and workerd.
import { createGateway } from '../../dist/gateway.js'

const gateway = createGateway()
export default { fetch: (request) => gateway.fetch(request) }
