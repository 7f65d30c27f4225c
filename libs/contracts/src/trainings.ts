/** Trainings and outputs as both sides speak them: states, ratings, limits and the error codes. */

/** draft: never run; queued/running: a run is on; ready: its knowledge and style guide are learned; failed: see error. */
export const TRAINING_STATES = ['draft', 'queued', 'running', 'ready', 'failed'] as const;
export type TrainingState = (typeof TRAINING_STATES)[number];
/** What a run is doing: reading the dataset, indexing it as the avatar's knowledge, learning its style. */
export const TRAINING_STAGES = ['reading', 'knowledge', 'style', 'guide', 'done'] as const;
export type TrainingStage = (typeof TRAINING_STAGES)[number];
/** execute: knowledge and style guide; sync: the dataset read and indexed again. */
export const TRAINING_RUN_KINDS = ['execute', 'sync'] as const;
export type TrainingRunKind = (typeof TRAINING_RUN_KINDS)[number];

export const OUTPUT_STATUSES = ['generating', 'complete', 'failed'] as const;
export type OutputStatus = (typeof OUTPUT_STATUSES)[number];
export const OUTPUT_RATINGS = ['up', 'down'] as const;
export type OutputRating = (typeof OUTPUT_RATINGS)[number];

/** A training may run this long, then it is stopped as failed. */
export const TRAINING_MAX_MINUTES = 15;
export const MAX_TRAINING_NAME = 255;
export const MAX_OUTPUT_PROMPT = 30_000;
export const MAX_OUTPUT_CONTENT = 65_000;
export const MAX_RATING_NOTE = 2_000;

export const TRAINING_ERROR_CODES = [
  'training_not_found',
  'training_busy',
  'training_not_executed',
  'training_nothing_rated',
  'training_file_missing',
  'output_not_found',
  'output_generating',
] as const;

/**
 * A run's progress (event `training_progress`), sent to the training's owner at every step: the state, the
 * stage, 0-100, and the reason when it failed.
 */
export interface TrainingProgressPayload {
  training_id: number;
  avatar_id: number;
  kind: TrainingRunKind;
  state: TrainingState;
  stage: TrainingStage | null;
  progress: number;
  error: string | null;
}

/**
 * An output's text as it is written (event `output`): pieces with the offset where each starts, then one event
 * with `done: true` whose content is the whole text and whose status is complete or failed.
 */
export interface OutputPayload {
  output_id: number;
  avatar_id: number;
  training_id: number | null;
  content: string;
  offset: number;
  done: boolean;
  status: OutputStatus;
}
