import { notifications } from '@mantine/notifications';
import { useSession } from '@avatar-studio/shared';
import { renderWithProviders, testUser, type MockRoutes } from '@avatar-studio/shared/testing';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { Route, Routes } from 'react-router-dom';
import App from '../App';

configure({ asyncUtilTimeout: 5000 });
afterEach(() => notifications.clean());

const manager = testUser({ staff: { staff_id: 2, role: 'manager' } });

function SignedIn({ children }: { children: ReactNode }) {
  return useSession().status === 'signedIn' ? <>{children}</> : null;
}

const intro = {
  tutorial_id: 1,
  name: 'Getting started',
  thumbnail: '/api/files/content/start.png',
  order: 1,
  src: 'dQw4w9WgXcQ',
  language: 'en',
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
};
const list = (tutorials: object[]) => ({ body: { tutorials, total: tutorials.length, page: 1, limit: 200 } });

function renderAdmin(routes: MockRoutes) {
  return renderWithProviders(
    <SignedIn>
      <Routes>
        <Route path="/admin/*" element={<App />} />
      </Routes>
    </SignedIn>,
    { user: manager, route: '/admin/tutorials', routes },
  );
}

describe('Tutorial management', () => {
  it('lists the tutorials of a language with order, thumbnail and name', async () => {
    const { fetch } = renderAdmin({ 'GET /api/tutorials': list([intro]) });
    expect(await screen.findByText('Getting started')).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: '1' })).toBeInTheDocument();
    expect(fetch.callsTo('GET /api/tutorials')[0].query.get('language')).toBe('en');
    await userEvent.click(screen.getByRole('textbox', { name: 'Language' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Spanish' }));
    await waitFor(() => expect(fetch.callsTo('GET /api/tutorials').at(-1)!.query.get('language')).toBe('es'));
  });

  it("adds a tutorial from a YouTube link, requiring a name ('The value can't be empty')", async () => {
    const { fetch } = renderAdmin({
      'GET /api/tutorials': list([]),
      'POST /api/tutorials': { status: 201, body: { tutorial: intro } },
    });
    await screen.findByText('No tutorials yet.');
    await userEvent.click(screen.getByRole('button', { name: 'Add tutorial' }));
    const dialog = await screen.findByRole('dialog', { name: 'New tutorial' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findAllByText("The value can't be empty")).toHaveLength(2);
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Name/ }), 'Getting started');
    await userEvent.type(
      within(dialog).getByRole('textbox', { name: 'YouTube link or video id' }),
      'https://youtu.be/dQw4w9WgXcQ',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fetch.callsTo('POST /api/tutorials')).toHaveLength(1));
    expect(fetch.callsTo('POST /api/tutorials')[0].body).toEqual({
      name: 'Getting started',
      order: 0,
      language: 'en',
      thumbnail: null,
      src: 'https://youtu.be/dQw4w9WgXcQ',
    });
    expect(await screen.findByText('Tutorial saved.')).toBeInTheDocument();
  });

  it('uploads a video file and a thumbnail, then saves their src', async () => {
    let uploads = 0;
    const { fetch } = renderAdmin({
      'GET /api/tutorials': list([]),
      'POST /api/files': () => ({
        status: 201,
        body: { file: { src: `/api/files/content/upload-${++uploads}` } },
      }),
      'POST /api/tutorials': { status: 201, body: { tutorial: intro } },
    });
    await screen.findByText('No tutorials yet.');
    await userEvent.click(screen.getByRole('button', { name: 'Add tutorial' }));
    const dialog = await screen.findByRole('dialog', { name: 'New tutorial' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Name/ }), 'Uploaded');
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Uploaded file' }));
    const [video, thumbnail] = dialog.querySelectorAll('input[type="file"]');
    await userEvent.upload(video as HTMLInputElement, new File(['v'], 'intro.mp4', { type: 'video/mp4' }));
    await userEvent.upload(
      thumbnail as HTMLInputElement,
      new File(['i'], 'intro.png', { type: 'image/png' }),
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fetch.callsTo('POST /api/tutorials')).toHaveLength(1));
    expect(fetch.callsTo('POST /api/tutorials')[0].body).toMatchObject({
      name: 'Uploaded',
      thumbnail: '/api/files/content/upload-1',
      src: '/api/files/content/upload-2',
    });
  });

  it('shows the server’s sentence about a refused video, and deletes after confirmation', async () => {
    const { fetch } = renderAdmin({
      'GET /api/tutorials': list([intro]),
      'PUT /api/tutorials': {
        status: 400,
        body: {
          statusCode: 400,
          message: 'The video must be a YouTube link or video id, or an uploaded video file.',
        },
      },
      'DELETE /api/tutorials/1': { status: 204 },
    });
    await screen.findByText('Getting started');
    await userEvent.click(screen.getByRole('button', { name: 'Edit Getting started' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit tutorial' });
    const link = within(dialog).getByRole('textbox', { name: 'YouTube link or video id' });
    await userEvent.clear(link);
    await userEvent.type(link, 'https://vimeo.com/1');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      await within(dialog).findByText(
        'The video must be a YouTube link or video id, or an uploaded video file.',
      ),
    ).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await userEvent.click(screen.getByRole('button', { name: 'Delete Getting started' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete this tutorial?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(fetch.callsTo('DELETE /api/tutorials/1')).toHaveLength(1));
  });
});
