// The lightbox: one image large, ←/→ to move, Escape to close, Save to file.
import * as Dialog from '@radix-ui/react-dialog';
import { formatBytes } from '@shared/toolResult';
import { fileNameFor } from '../lib/media';

export interface GalleryImage {
  url: string;
  mimeType: string;
  size: number;
}

export function Lightbox(props: {
  images: GalleryImage[];
  index: number;
  name: string;
  onIndex: (i: number) => void;
  onClose: () => void;
}) {
  const { images, index } = props;
  const img = images[index]!;
  const n = images.length;
  const move = (d: number) => props.onIndex((index + d + n) % n);
  return (
    <Dialog.Root open onOpenChange={(o) => !o && props.onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="overlay dark" />
        <Dialog.Content
          className="lightbox"
          data-testid="lightbox"
          aria-describedby={undefined}
          onKeyDown={(e) => {
            if (e.key === 'ArrowRight') move(1);
            else if (e.key === 'ArrowLeft') move(-1);
          }}
        >
          <Dialog.Title className="sr-only">
            Image {index + 1} of {n}
          </Dialog.Title>
          <img src={img.url} alt={`Result image ${index + 1} of ${n}`} />
          <div className="lightbox-bar">
            <button type="button" onClick={() => move(-1)} disabled={n < 2} aria-label="Previous image">
              ←
            </button>
            <span data-testid="lightbox-position">
              {index + 1} / {n} · {img.mimeType} · {formatBytes(img.size)}
            </span>
            <button type="button" onClick={() => move(1)} disabled={n < 2} aria-label="Next image">
              →
            </button>
            <a
              className="button"
              href={img.url}
              download={fileNameFor(`${props.name}-${index + 1}`, img.mimeType)}
            >
              Save to file
            </a>
            <Dialog.Close className="button">Close</Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
