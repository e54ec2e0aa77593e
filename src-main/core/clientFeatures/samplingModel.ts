// Which model answers a server's sampling request once the person approved it (spec 2025-11-25 "Sampling";
// clientFeatures/sampling.ts): the one picked last — by a host, or by the chat, whose latest turn's model it
// is (agent/chatService.ts) — else the host's default (`MooringCoreOptions.complete`). With neither, the
// request fails with why.
import { MooringError } from '../errors';
import type { SamplingComplete } from './sampling';

export class SamplingModel {
  private picked?: SamplingComplete;

  constructor(private readonly fallback?: SamplingComplete) {}

  /** The model that answers from now on; undefined: the host's default again. */
  pick(complete: SamplingComplete | undefined): void {
    this.picked = complete;
  }

  /** Completes with the model as of the request (a pick made meanwhile applies to the next one). */
  readonly complete: SamplingComplete = (request, ctx) => {
    const model = this.picked ?? this.fallback;
    if (!model) throw new MooringError('internal', 'No model answers sampling requests.');
    return model(request, ctx);
  };
}
