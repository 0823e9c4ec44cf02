import type * as ir from '../ir/index.js'

/**
 * The request's tools, filtered to `allowedTools` for a format that has no allowed-tools list of its own (messages,
 * converse), with the `changed` warning that says so. Undefined when the request has no tools.
 */
export function allowedToolsOnly(request: ir.Request, format: string, warnings: ir.Warning[]): ir.Tool[] | undefined {
  const tools = request.tools
  if (!tools || !request.allowedTools) return tools
  const allowed = new Set(request.allowedTools)
  warnings.push({
    type: 'changed',
    path: 'allowedTools',
    message: `${format} has no allowed-tools list; tools filtered to it`,
  })
  return tools.filter((tool) => allowed.has(tool.name))
}
