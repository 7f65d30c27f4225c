import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { startTransition, useState } from 'react';

/** A form whose submit handler starts a transition: React then reads the form into a FormData of its own. */
function TransitionForm() {
  const [sent, setSent] = useState(0);
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        startTransition(() => setSent((n) => n + 1));
      }}
    >
      <input aria-label="Email" name="email" defaultValue="ann@example.com" />
      <button type="submit">Send</button>
      <output>sent {sent}</output>
    </form>
  );
}

describe('the component tests’ page', () => {
  it('builds a FormData from a form, as a browser does', () => {
    document.body.innerHTML =
      '<form><input name="email" value="ann@example.com"><input name="code" value="123456"></form>';
    const data = new FormData(document.querySelector('form') as HTMLFormElement);
    expect([...data.entries()]).toEqual([
      ['email', 'ann@example.com'],
      ['code', '123456'],
    ]);
    expect(new Request('http://localhost/', { method: 'POST', body: data })).toBeInstanceOf(Request);
  });

  it('submits a form whose handler starts a transition', async () => {
    const user = userEvent.setup();
    render(<TransitionForm />);
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('sent 1')).toBeInTheDocument();
  });
});
