// @weft/otel/testing — a loopback OTLP/HTTP receiver for tests of traced applications.

export {
  type OtlpReceiver,
  type ReceivedSpan,
  receivedTree,
  startOtlpReceiver,
} from './otlp-receiver.js';
