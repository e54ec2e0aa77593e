// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { messageWithFiles } from '@shared/attachedFiles';
import { MAX_IMAGE_BYTES, readAttachment } from './attachments';

describe('attachments', () => {
  it('reads an image as base64 image data and a text file as text; refuses anything else with a reason', async () => {
    const png = await readAttachment(
      new File([new Uint8Array([137, 80, 78, 71])], 'a.png', { type: 'image/png' }),
    );
    expect(png).toMatchObject({
      kind: 'image',
      image: { type: 'image', mimeType: 'image/png', data: 'iVBORw==' },
    });
    const notes = await readAttachment(new File(['hello'], 'notes.ts', { type: '' }));
    expect(notes).toMatchObject({ kind: 'text', text: 'hello' });
    const exe = await readAttachment(new File(['MZ'], 'x.exe', { type: 'application/octet-stream' }));
    expect(exe).toEqual({
      error: 'x.exe is neither an image nor a text file, so it cannot go to the model.',
    });
    const big = await readAttachment(
      new File([new Uint8Array(MAX_IMAGE_BYTES + 1)], 'big.png', { type: 'image/png' }),
    );
    expect((big as { error: string }).error).toContain('images up to 5.0 MB');
  });

  it('puts each text file after the message in a fence longer than any backticks inside it', () => {
    const files = [{ name: 'a.md', text: 'see ```js``` here\n' }];
    expect(messageWithFiles('Read this', files)).toBe('Read this\n\na.md:\n````\nsee ```js``` here\n````');
    expect(messageWithFiles('  ', files)).toBe('a.md:\n````\nsee ```js``` here\n````');
  });
});
