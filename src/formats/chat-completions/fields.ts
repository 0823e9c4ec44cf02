/**
 * The request fields chat-completions and the IR spell differently but copy as they are, in wire order: wire key, IR
 * key, … (one table for decode-request and encode-request). `stop` is widened from a string by the decoder.
 */
export const plainFields = (
  'temperature temperature top_p topP stop stopSequences n n seed seed presence_penalty presencePenalty ' +
  'frequency_penalty frequencyPenalty logprobs logprobs top_logprobs topLogprobs user user metadata metadata'
).split(' ')
