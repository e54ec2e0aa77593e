// What a person does with a whole conversation: save it as Markdown or JSON (the core writes both,
// agent/conversationTransfer.ts), and see every image in it — the tools' and their own attachments — in
// one gallery with the lightbox. Import of a JSON export lives in the conversation list.
import { useQueryClient } from '@tanstack/react-query';
import { FileDown, Images, MoreHorizontal } from 'lucide-react';
import { useState } from 'react';
import type { ChatMessage } from '@shared/chat';
import { useTRPC } from '../../api/trpc';
import { ErrorNote } from '../../components/ErrorNote';
import { Gallery, imageData, type ImageData } from '../../components/Gallery';
import { Dialog, IconButton, Menu } from '../../ui';

/** Hands a file to the browser's (or the desktop shell's) download. */
export function saveFile(filename: string, content: string, type: string): void {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Every image of the conversation in order: attachments of the person's messages and tool results. */
export function conversationImages(messages: readonly ChatMessage[]): ImageData[] {
  return messages.flatMap((m) => {
    const parts =
      m.role === 'user'
        ? m.content.flatMap((p) => (p.type === 'image' ? [p] : []))
        : m.role === 'tool'
          ? (m.images ?? [])
          : [];
    return parts.map(imageData);
  });
}

export function ConversationMenu({ id, messages }: { id: string; messages: readonly ChatMessage[] }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const [error, setError] = useState<unknown>(null);
  const [gallery, setGallery] = useState(false);
  const images = conversationImages(messages);
  const save = async (format: 'markdown' | 'json') => {
    setError(null);
    try {
      const file = await qc.fetchQuery({ ...trpc.chat.export.queryOptions({ id, format }), staleTime: 0 });
      saveFile(file.filename, file.content, format === 'json' ? 'application/json' : 'text/markdown');
    } catch (err) {
      setError(err);
    }
  };
  return (
    <>
      <Menu
        label="Conversation"
        trigger={<IconButton label="Conversation actions" icon={<MoreHorizontal size={16} />} />}
        items={[
          {
            label: 'Export as Markdown',
            icon: <FileDown size={16} />,
            onSelect: () => void save('markdown'),
          },
          {
            label: 'Export as JSON',
            description: 'Import it again from the conversation list',
            icon: <FileDown size={16} />,
            onSelect: () => void save('json'),
          },
          {
            label: `Images (${images.length})`,
            description: 'From tools and your messages',
            icon: <Images size={16} />,
            onSelect: () => setGallery(true),
          },
        ]}
      />
      <ErrorNote error={error} />
      <Dialog
        open={gallery}
        onOpenChange={setGallery}
        title="Images in this conversation"
        size="lg"
        testId="conversation-gallery"
      >
        {images.length ? (
          <Gallery images={images} label="this conversation" />
        ) : (
          <p className="muted">No images yet: the ones tools return and the ones you attach gather here.</p>
        )}
      </Dialog>
    </>
  );
}
