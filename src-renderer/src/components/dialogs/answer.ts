// How a dialog body answers the request it shows (InteractionDialogs.tsx sends it to the core).
import type { InteractionAnswerInput } from '@shared/interactions';

export type Answer = (answer: InteractionAnswerInput) => void;
