import { notifications } from '@mantine/notifications';
import { registerTranslations, setRealtimeIo } from '@avatar-studio/shared';
import { renderWithProviders, testUser } from '@avatar-studio/shared/testing';
import { configure, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { SignedIn, fakeIo, message } from '../conversations/testkit';
import { en, es } from '../i18n';
import { template } from '../templates/testkit';
import { ApplyAvatarPage } from './ApplyAvatarPage';
import { avatar } from './testkit';

registerTranslations('customer', { en, es });
configure({ asyncUtilTimeout: 5000 });
beforeEach(() => setRealtimeIo(fakeIo().io));
afterEach(() => {
  setRealtimeIo(null);
  notifications.clean();
});

function renderApply(routes = {}) {
  return renderWithProviders(
    <SignedIn>
      <Routes>
        <Route path="/templates/apply-avatar/:template_id/:avatar_id" element={<ApplyAvatarPage />} />
      </Routes>
    </SignedIn>,
    {
      user: testUser(),
      route: '/templates/apply-avatar/11/5',
      routes: {
        'GET /api/templates/11': { body: { template: template() } },
        'GET /api/avatars/5': { body: { avatar: avatar() } },
        'GET /api/messages/thread/5/1': { body: { messages: [], total: 0, page: 1, limit: 10 } },
        ...routes,
      },
    },
  );
}

describe('Apply a template with an avatar', () => {
  it('requires every field, then sends the template to the avatar’s thread', async () => {
    const pending = message({ message_id: 4, conversation_id: 70, role: 'assistant', content: null });
    const { fetch } = renderApply({
      'POST /api/messages': {
        status: 201,
        body: {
          user_message: message({ message_id: 3, conversation_id: 70, content: 'Blog post' }),
          message: pending,
        },
      },
    });
    const ui = userEvent.setup();
    expect(
      await screen.findByRole('heading', { name: 'Use a template with Copywriter' }),
    ).toBeInTheDocument();
    await ui.click(screen.getByRole('button', { name: 'Generate' }));
    expect(fetch.callsTo('POST /api/messages')).toHaveLength(0);
    await ui.type(screen.getByRole('textbox', { name: 'Topic' }), 'herons');
    await ui.click(screen.getByRole('button', { name: 'Generate' }));
    await waitFor(() => expect(fetch.callsTo('POST /api/messages')).toHaveLength(1));
    expect(fetch.callsTo('POST /api/messages')[0].body).toEqual({
      template_id: 11,
      values: { topic: 'herons', tone: 'formal' },
      avatar_id: 5,
      stream: true,
    });
  });

  it('says when the avatar is not available', async () => {
    renderApply({
      'GET /api/avatars/5': { status: 404, body: { message: 'Avatar not found.', code: 'avatar_not_found' } },
    });
    expect(
      await screen.findByText('This avatar does not exist or is not available to you.'),
    ).toBeInTheDocument();
  });
});
