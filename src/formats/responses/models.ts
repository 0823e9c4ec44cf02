/** Model listings are chat-completions' (`GET /v1/models`); the contract still wants the body shape. */
export { encodeModelList } from '../chat-completions/models.js'
