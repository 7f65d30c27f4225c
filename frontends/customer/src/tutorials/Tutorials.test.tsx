import { registerTranslations } from '@avatar-studio/shared';
import { renderWithProviders, testUser, type MockRoutes } from '@avatar-studio/shared/testing';
import { configure, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { SignedIn } from '../conversations/testkit';
import { en, es } from '../i18n';
import type { Tutorial } from './api';
import { TutorialPlayerPage } from './TutorialPlayerPage';
import { TutorialsPage } from './TutorialsPage';

registerTranslations('customer', { en, es });
configure({ asyncUtilTimeout: 5000 });

const tutorial = (overrides: Partial<Tutorial>): Tutorial => ({
  tutorial_id: 1,
  name: 'Getting started',
  thumbnail: '/api/files/content/start.png',
  order: 1,
  src: 'dQw4w9WgXcQ',
  language: 'en',
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
  ...overrides,
});
const start = tutorial({});
const upload = tutorial({
  tutorial_id: 2,
  name: 'Documents',
  thumbnail: null,
  order: 2,
  src: '/api/files/content/docs.mp4',
});

function renderAt(route: string, routes: MockRoutes) {
  return renderWithProviders(
    <SignedIn>
      <Routes>
        <Route path="/tutorials" element={<TutorialsPage />} />
        <Route path="/tutorials/:tutorial_id" element={<TutorialPlayerPage />} />
      </Routes>
    </SignedIn>,
    { user: testUser(), route, routes },
  );
}

describe('Tutorials', () => {
  it('shows the grid of the user’s language in order, with thumbnail and Play', async () => {
    const { fetch } = renderAt('/tutorials', {
      'GET /api/tutorials': { body: { tutorials: [start, upload], total: 2, page: 1, limit: 100 } },
    });
    const card = await screen.findByRole('article', { name: 'Getting started' });
    expect(within(card).getByText('1')).toBeInTheDocument();
    expect(card.querySelector('img')).toHaveAttribute('src', '/api/files/content/start.png');
    expect(within(card).getByRole('link', { name: 'Play Getting started' })).toHaveAttribute(
      'href',
      '/tutorials/1',
    );
    expect(within(screen.getByRole('article', { name: 'Documents' })).getByText('2')).toBeInTheDocument();
    expect(fetch.callsTo('GET /api/tutorials')[0].query.get('language')).toBe('en');
  });

  it('says so when there are none', async () => {
    renderAt('/tutorials', {
      'GET /api/tutorials': { body: { tutorials: [], total: 0, page: 1, limit: 100 } },
    });
    expect(await screen.findByText('No tutorials yet.')).toBeInTheDocument();
  });

  it('embeds a YouTube tutorial and counts the play once', async () => {
    const { fetch } = renderAt('/tutorials/1', {
      'GET /api/tutorials/1': { body: { tutorial: start } },
      'POST /api/tutorials/1/plays': { status: 204 },
    });
    const frame = await screen.findByTitle('Getting started');
    expect(frame).toHaveAttribute('src', 'https://www.youtube.com/embed/dQw4w9WgXcQ');
    await waitFor(() => expect(fetch.callsTo('POST /api/tutorials/1/plays')).toHaveLength(1));
  });

  it('plays an uploaded video and counts the play when it starts', async () => {
    const { fetch } = renderAt('/tutorials/2', {
      'GET /api/tutorials/2': { body: { tutorial: upload } },
      'POST /api/tutorials/2/plays': { status: 204 },
    });
    const video = await screen.findByLabelText('Documents');
    expect(video).toHaveAttribute('src', '/api/files/content/docs.mp4');
    expect(fetch.callsTo('POST /api/tutorials/2/plays')).toHaveLength(0);
    video.dispatchEvent(new Event('play'));
    await waitFor(() => expect(fetch.callsTo('POST /api/tutorials/2/plays')).toHaveLength(1));
  });

  it('says so for a missing tutorial', async () => {
    renderAt('/tutorials/9', {
      'GET /api/tutorials/9': { status: 404, body: { message: 'Tutorial not found.' } },
    });
    expect(await screen.findByText('This tutorial does not exist.')).toBeInTheDocument();
  });
});
