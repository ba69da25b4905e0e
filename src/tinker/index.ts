// The Tinker adapter: a model on a Tinker service (hosted Tinker, SkyRL's Tinker API, the tests' loopback stand-in)
// reached through our own client of its HTTP API (after the SDK 0.25), as the policy that samples through it, and the
// checkpoints a training run leaves there, with the wire types they use. Training on the service is rl's Tinker
// backend (rl/backends/tinker/), which the package entry "budgetrl/tinker" exports with these names.
// Left out: the endpoints, the protobuf encoding, fault classification, JWTs, the eval policy's assembly.
// Importing it registers the policy kind `tinker:` (policy-kind.ts), so that evaluate({ policy: "tinker:..." }) works.
import "./policy-kind.js";
export { readTinkerCheckpoint, TINKER_CHECKPOINT_FORMAT, type TinkerCheckpoint } from "./checkpoint.js";
export {
  createTinkerClient,
  PROTOCOL_SDK_VERSION,
  TinkerRequestError,
  type SubmitOptions,
  type TinkerClient,
  type TinkerClientOptions,
  type TinkerClientStats,
  type TinkerNotice,
} from "./client.js";
export { createTinkerPolicy, type SampledReply, type SampleReplies } from "./policy.js";
export {
  TINKER_LOSSES,
  TinkerProtocolError,
  type AdamParams,
  type ClientConfig,
  type Datum,
  type ForwardBackwardOutput,
  type LossRequest,
  type ModelInput,
  type SampleOutput,
  type SamplingParams,
  type TensorData,
  type TinkerLoss,
} from "./wire.js";
