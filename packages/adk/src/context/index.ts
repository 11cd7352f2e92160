/**
 * `@weft/adk/context` — context engineering, for users who shape what a model sees on each call:
 * compaction of long histories (and the summaries it writes), prompt sections assembled under a token
 * budget (long-term memory recall among them), reminders with their triggers, phases, token estimators
 * and the helpers that split a history into turns. Everything here is middleware or a helper for it:
 * give the results to a `ChatModelAgent`'s `middleware`.
 *
 * @example
 * ```ts
 * import { ChatModelAgent } from '@weft/adk';
 * import { compaction } from '@weft/adk/context';
 * import { ScriptedChatModel } from '@weft/adk/testing';
 *
 * const model = new ScriptedChatModel(['Summary: the user asked for a haiku.', 'Here is your haiku.']);
 * const agent = new ChatModelAgent({
 *   name: 'helper',
 *   model,
 *   middleware: [compaction({ model, thresholdTokens: 8_000, keepLastTurns: 4 })],
 * });
 * ```
 *
 * @packageDocumentation
 */
export { recallSection } from '../memory/recall.js';
export { type CompactionOptions, compaction } from './compaction.js';
export {
  DEFAULT_SUMMARY_INSTRUCTION,
  type SummarizeOptions,
  summarizeMessages,
  toTranscript,
} from './compaction-summary.js';
export { type ContextEventType, reportContextEvent } from './context-event.js';
export {
  type Phase,
  type PhaseSettings,
  type PhasesOptions,
  type PhaseView,
  phaseOf,
  phases,
} from './phases.js';
export {
  type AssembledPrompt,
  assembleSections,
  type PromptSection,
  type PromptSectionsOptions,
  promptSections,
  type ResolvedSection,
} from './prompt-sections.js';
export {
  callsInCategory,
  categoryUsedThisTurn,
  compactedForThisCall,
  isNewResult,
  iterationsWithoutProgress,
  type ProgressPredicate,
} from './reminder-triggers.js';
export {
  type ReminderRule,
  type RemindersOptions,
  type ReminderTrigger,
  reminders,
} from './reminders.js';
export {
  type ApproximateTokenEstimatorOptions,
  approximateTokenEstimator,
  defaultTokenEstimator,
  type TokenEstimator,
} from './token-estimator.js';
export {
  type CompactionSplit,
  isCompactionSummary,
  isContextNote,
  SUMMARY_ID_PREFIX,
  splitForCompaction,
  splitTurns,
  TASK_REMINDER_ID_PREFIX,
} from './turns.js';
