// @vitest-environment happy-dom
// The interaction dialogs' bodies in happy-dom: URL mode opens only https links and only after consent;
// the elicitation form sends typed content with defaults and names a bad field instead of sending.
import * as Dialog from '@radix-ui/react-dialog';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ElicitationFormInteraction, ElicitationUrlInteraction } from '@shared/interactions';
import { ElicitationFormBody } from './ElicitationFormBody';
import { ElicitationUrlBody } from './ElicitationUrlBody';

afterEach(cleanup);

const inDialog = (children: ReactNode) => (
  <Dialog.Root open>
    <Dialog.Content aria-describedby={undefined}>{children}</Dialog.Content>
  </Dialog.Root>
);
const base = { id: 'r1', server: 'everything', requestedAt: 0, expiresAt: 1 };

describe('URL elicitation', () => {
  const request = (url: string): ElicitationUrlInteraction => ({
    ...base,
    kind: 'elicitation-url',
    message: 'Sign in to continue',
    url,
    host: new URL(url).host,
    elicitationId: 'e1',
  });

  it('shows the full URL and host, and opens it only after consent', () => {
    const open = vi.fn();
    const send = vi.fn();
    render(
      inDialog(
        <ElicitationUrlBody
          request={request('https://auth.example.com/start?x=1')}
          send={send}
          busy={false}
          error={null}
          open={open}
        />,
      ),
    );
    expect(screen.getByTestId('url-full').textContent).toBe('https://auth.example.com/start?x=1');
    expect(screen.getByTestId('url-host').textContent).toBe('auth.example.com');
    expect(open).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Open auth.example.com' }));
    expect(open).toHaveBeenCalledWith('https://auth.example.com/start?x=1');
    expect(send).toHaveBeenCalledWith({ kind: 'elicitation-url', action: 'accept' });
  });

  it('never opens a link that is not https; Decline answers decline', () => {
    const open = vi.fn();
    const send = vi.fn();
    render(
      inDialog(
        <ElicitationUrlBody
          request={request('http://plain.example.com/')}
          send={send}
          busy={false}
          error={null}
          open={open}
        />,
      ),
    );
    const button = screen.getByRole('button', { name: 'Open plain.example.com' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    fireEvent.click(button);
    expect(open).not.toHaveBeenCalled();
    expect(screen.getByRole('alert').textContent).toMatch(/not https/);
    fireEvent.click(screen.getByRole('button', { name: 'Decline' }));
    expect(send).toHaveBeenCalledWith({ kind: 'elicitation-url', action: 'decline' });
  });
});

describe('form elicitation', () => {
  const request: ElicitationFormInteraction = {
    ...base,
    kind: 'elicitation-form',
    message: 'Who are you?',
    requestedSchema: {
      type: 'object',
      properties: {
        name: { type: 'string', title: 'Name' },
        age: { type: 'integer', title: 'Age', minimum: 0, default: 30 },
      },
      required: ['name'],
    },
  };

  it('applies defaults, blocks an empty required field, then sends typed content', () => {
    const send = vi.fn();
    render(inDialog(<ElicitationFormBody request={request} send={send} busy={false} error={null} />));
    expect((screen.getByLabelText('Age') as HTMLInputElement).value).toBe('30');
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(send).not.toHaveBeenCalled();
    expect(screen.getByRole('alert').textContent).toBe('required');
    fireEvent.change(screen.getByLabelText('Name *'), { target: { value: 'Ada' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(send).toHaveBeenCalledWith({
      kind: 'elicitation-form',
      action: 'accept',
      content: { name: 'Ada', age: 30 },
    });
  });
});
