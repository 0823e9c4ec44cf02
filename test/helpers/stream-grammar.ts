/** The IR stream grammar check lives in the library (src/stream/grammar.ts): `interlingua check` judges with it. */
export { grammarViolations } from '../../src/stream/grammar.js'
