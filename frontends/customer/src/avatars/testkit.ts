/** Test data of the avatar screens (test files only). */
import type { Avatar, AvatarFile, Output, Training } from './api';

export function avatar(overrides: Partial<Avatar> = {}): Avatar {
  return {
    avatar_id: 5,
    assistant_id: 'asst_0123456789abcdef01234567',
    name: 'Copywriter',
    description: 'Writes ads',
    context: 'You write short ads.',
    user_id: 1,
    organization_id: null,
    public: false,
    super_fetch_assistant: false,
    can_manage: true,
    avatar_files: [],
    createdAt: '2025-01-02T00:00:00.000Z',
    updatedAt: '2025-01-02T00:00:00.000Z',
    ...overrides,
  };
}

export function avatarFile(overrides: Partial<AvatarFile> = {}): AvatarFile {
  return {
    avatar_file_id: 11,
    file_data: { name: 'facts.txt', file_id: null, type: 'text/plain; charset=utf-8' },
    openai_file_id: '11',
    editable: true,
    content: 'The mascot is a heron.',
    index_state: 'ready',
    index_error: null,
    chunks: 1,
    createdAt: '2025-01-02T00:00:00.000Z',
    updatedAt: '2025-01-02T00:00:00.000Z',
    ...overrides,
  };
}

export const page = (avatars: Avatar[]) => ({ body: { avatars, total: avatars.length, page: 1, limit: 24 } });

export function training(overrides: Partial<Training> = {}): Training {
  return {
    training_id: 21,
    name: 'Newsletter posts',
    avatar_id: 5,
    file_id: 3,
    file: { file_id: 3, name: 'posts.jsonl', type: 'text/plain; charset=utf-8', size: 2048 },
    user_id: 1,
    organization_id: null,
    public: false,
    state: 'draft',
    stage: null,
    progress: 0,
    error: null,
    style_guide: '',
    avatar_file_id: null,
    can_manage: true,
    executed_at: null,
    synced_at: null,
    refined_at: null,
    createdAt: '2025-01-02T00:00:00.000Z',
    updatedAt: '2025-01-02T00:00:00.000Z',
    ...overrides,
  };
}

export const trainingPage = (trainings: Training[], own_key_pays = false) => ({
  body: { trainings, total: trainings.length, page: 1, limit: 24, own_key_pays },
});

export function output(overrides: Partial<Output> = {}): Output {
  return {
    output_id: 31,
    avatar_id: 5,
    training_id: null,
    prompt: 'A post about boats',
    content: 'Ahoy crew, the boats are in.',
    status: 'complete',
    rating: null,
    rating_note: null,
    createdAt: '2025-01-02T00:00:00.000Z',
    updatedAt: '2025-01-02T00:00:00.000Z',
    ...overrides,
  };
}

export const outputPage = (outputs: Output[]) => ({
  body: { outputs, total: outputs.length, page: 1, limit: 20 },
});
