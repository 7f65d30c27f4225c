import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { act, render, screen } from '@testing-library/react';
import { ApiError, errorAlertText, notifyError, notifySuccess } from '@avatar-studio/shared';

function renderNotifications() {
  render(
    <MantineProvider>
      <Notifications />
    </MantineProvider>,
  );
}

describe('notify (000 §8)', () => {
  it('shows the server message of an API error', () => {
    expect(errorAlertText(new ApiError(404, { message: 'We did not find it.' }))).toBe('We did not find it.');
  });

  it('falls back to the error text when the server sent no message', () => {
    expect(errorAlertText(new Error('Network is down'))).toBe('Network is down');
    expect(errorAlertText({ message: 'x', response: { data: { message: 'From server' } } })).toBe(
      'From server',
    );
  });

  it('suppresses error messages containing 401 or 400', () => {
    expect(errorAlertText(new ApiError(401, {}))).toBeNull();
    expect(errorAlertText(new ApiError(400, null))).toBeNull();
    expect(errorAlertText(new Error('Request failed with status code 400'))).toBeNull();
  });

  it('always shows plain strings, even with 400 in them', () => {
    expect(errorAlertText('Code 400 is fine here')).toBe('Code 400 is fine here');
  });

  it('keeps an alert for 5 s', async () => {
    jest.useFakeTimers();
    renderNotifications();
    act(() => notifyError('Something failed'));
    expect(await screen.findByText('Something failed')).toBeInTheDocument();
    act(() => jest.advanceTimersByTime(4800));
    expect(screen.getByText('Something failed')).toBeInTheDocument();
    for (let i = 0; i < 20; i++) act(() => jest.advanceTimersByTime(100));
    expect(screen.queryByText('Something failed')).not.toBeInTheDocument();
    jest.useRealTimers();
  });

  it('keeps a success for 3 s', async () => {
    jest.useFakeTimers();
    renderNotifications();
    act(() => notifySuccess('Saved'));
    expect(await screen.findByText('Saved')).toBeInTheDocument();
    act(() => jest.advanceTimersByTime(2800));
    expect(screen.getByText('Saved')).toBeInTheDocument();
    for (let i = 0; i < 20; i++) act(() => jest.advanceTimersByTime(100));
    expect(screen.queryByText('Saved')).not.toBeInTheDocument();
    jest.useRealTimers();
  });

  it('does not show a suppressed error', async () => {
    renderNotifications();
    act(() => notifyError(new ApiError(401, {})));
    await act(async () => {});
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
