/** Test data of the avatar screens (test files only). */
import type { Avatar, AvatarFile } from './api';

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
