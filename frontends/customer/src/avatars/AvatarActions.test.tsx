import { notifications } from '@mantine/notifications';
import { registerTranslations, setLanguage, setRealtimeIo } from '@avatar-studio/shared';
import { renderWithProviders, testUser, type MockRoutes } from '@avatar-studio/shared/testing';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { CurrentPath, SignedIn, fakeIo } from '../conversations/testkit';
import { en, es } from '../i18n';
import { AvatarPage } from './AvatarPage';
import { avatar, page, training, trainingPage } from './testkit';

registerTranslations('customer', { en, es });
configure({ asyncUtilTimeout: 5000 });

beforeEach(() => setRealtimeIo(fakeIo().io));
afterEach(async () => {
  setRealtimeIo(null);
  notifications.clean();
  await setLanguage('en');
});

const PREMIUM = {
  status: 412,
  body: {
    statusCode: 412,
    message: 'This is a premium feature. Please, upgrade your account.',
    code: 'no_access',
  },
};

function renderPage(routes: MockRoutes, shown = avatar()) {
  return renderWithProviders(
    <SignedIn>
      <Routes>
        <Route path="/avatars/:avatar_id/*" element={<AvatarPage />} />
        <Route path="*" element={null} />
      </Routes>
      <CurrentPath />
    </SignedIn>,
    {
      user: testUser(),
      route: `/avatars/${shown.avatar_id}`,
      routes: {
        [`GET /api/messages/thread/${shown.avatar_id}/1`]: {
          body: { messages: [], total: 0, page: 1, limit: 10 },
        },
        ...routes,
      },
    },
  );
}

describe('Avatar actions', () => {
  it("refines the avatar, says 'Refined.' and reloads it with its new context", async () => {
    let refined = false;
    const { fetch } = renderPage({
      'GET /api/avatars/5': () => ({
        body: {
          avatar: refined
            ? avatar({ context: 'You write warm, short ads.', updatedAt: '2025-01-03T00:00:00.000Z' })
            : avatar(),
        },
      }),
      'POST /api/avatars/refine': () => {
        refined = true;
        return { body: { avatar: avatar({ context: 'You write warm, short ads.' }) } };
      },
    });
    const ui = userEvent.setup();
    expect(await screen.findByRole('textbox', { name: 'Context' })).toHaveValue('You write short ads.');
    await ui.click(screen.getByRole('button', { name: 'Refine avatar' }));
    expect(await screen.findByText('Refined.')).toBeInTheDocument();
    expect(fetch.callsTo('POST /api/avatars/refine')[0].body).toEqual({ avatar_id: 5 });
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: 'Context' })).toHaveValue('You write warm, short ads.'),
    );
    expect(fetch.callsTo('GET /api/avatars/5').length).toBeGreaterThanOrEqual(2);
  });

  it('shows the server’s refusal of a refine, and goes to /sorry on 412', async () => {
    const { fetch } = renderPage({
      'GET /api/avatars/5': { body: { avatar: avatar() } },
      'POST /api/avatars/refine': {
        status: 400,
        body: {
          statusCode: 400,
          message: 'Rate some outputs of this avatar first.',
          code: 'avatar_nothing_rated',
        },
      },
    });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Refine avatar' }));
    expect(await screen.findByText('Rate some outputs of this avatar first.')).toBeInTheDocument();
    fetch.route({ 'POST /api/avatars/refine': PREMIUM });
    await ui.click(screen.getByRole('button', { name: 'Refine avatar' }));
    await waitFor(() => expect(screen.getByTestId('path')).toHaveTextContent('/sorry'));
  });

  it('hides the actions from someone who may not change the avatar', async () => {
    renderPage({ 'GET /api/avatars/5': { body: { avatar: avatar({ can_manage: false }) } } });
    expect(await screen.findByText('Copywriter')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Refine avatar' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Combine' })).not.toBeInTheDocument();
  });

  it('combines with another avatar and one of its executed trainings, the name required, then opens the new one', async () => {
    const other = avatar({ avatar_id: 6, name: 'Poet', assistant_id: 'asst_00000000000000000000000b' });
    const readOnly = avatar({ avatar_id: 7, name: 'Community poet', can_manage: false });
    const made = avatar({ avatar_id: 9, name: 'Sea poet' });
    const { fetch } = renderPage({
      'GET /api/avatars/5': { body: { avatar: avatar() } },
      'GET /api/avatars/9': { body: { avatar: made } },
      'GET /api/avatars': page([avatar(), other, readOnly]),
      'GET /api/trainings': trainingPage([
        training({ training_id: 31, avatar_id: 6, name: 'Verses', state: 'ready', style_guide: 'Rhyme.' }),
        training({ training_id: 32, avatar_id: 6, name: 'Draft only' }),
      ]),
      'POST /api/avatars/combine': { status: 201, body: { avatar: made } },
    });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Combine' }));
    const dialog = await screen.findByRole('dialog', { name: 'Combine with another avatar' });
    const create = within(dialog).getByRole('button', { name: 'Combine' });
    expect(create).toBeDisabled();

    // Only the caller's other avatars are offered.
    await ui.click(within(dialog).getByRole('textbox', { name: 'Other avatar' }));
    expect(await screen.findByRole('option', { name: 'Poet' })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'Community poet' })).not.toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'Copywriter' })).not.toBeInTheDocument();
    await ui.click(screen.getByRole('option', { name: 'Poet' }));
    await waitFor(() => expect(fetch.callsTo('GET /api/trainings').at(-1)!.query.get('avatar_id')).toBe('6'));

    // Only executed trainings (with a style guide) are offered.
    await ui.click(within(dialog).getByRole('textbox', { name: 'Training of the other avatar' }));
    expect(await screen.findByRole('option', { name: 'Verses' })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'Draft only' })).not.toBeInTheDocument();
    await ui.click(screen.getByRole('option', { name: 'Verses' }));

    await ui.click(create);
    expect(await within(dialog).findByText('You must add a name to your avatar.')).toBeInTheDocument();
    expect(fetch.callsTo('POST /api/avatars/combine')).toHaveLength(0);
    await ui.type(within(dialog).getByRole('textbox', { name: 'Name of the new avatar' }), ' Sea poet ');
    await ui.click(create);
    expect(await screen.findByText('Saved.')).toBeInTheDocument();
    expect(fetch.callsTo('POST /api/avatars/combine')[0].body).toEqual({
      selected_avatar_id: 5,
      target_avatar_id: 6,
      target_training_id: 31,
      name: 'Sea poet',
    });
    await waitFor(() => expect(screen.getByTestId('path')).toHaveTextContent('/avatars/9'));
  });

  it('says when the other avatar has no executed training, in Spanish too', async () => {
    await setLanguage('es');
    renderPage({
      'GET /api/avatars/5': { body: { avatar: avatar() } },
      'GET /api/avatars': page([avatar(), avatar({ avatar_id: 6, name: 'Poeta' })]),
      'GET /api/trainings': trainingPage([training({ avatar_id: 6 })]),
    });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Combinar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Combinar con otro avatar' });
    await ui.click(within(dialog).getByRole('textbox', { name: 'Otro avatar' }));
    await ui.click(await screen.findByRole('option', { name: 'Poeta' }));
    expect(
      await within(dialog).findByText('Ese avatar aún no tiene un entrenamiento ejecutado.'),
    ).toBeInTheDocument();
  });
});
