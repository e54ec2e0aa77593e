// Images from a tool result in a grid; a click (or Enter) opens the lightbox.
import { useEffect, useMemo, useState } from 'react';
import { blobUrl } from '../lib/media';
import { Lightbox, type GalleryImage } from './Lightbox';

export interface ImageData {
  base64: string;
  mimeType: string;
  size: number;
}

export function Gallery({ images, label }: { images: ImageData[]; label: string }) {
  const urls = useMemo(() => images.map((i) => blobUrl(i.base64, i.mimeType)), [images]);
  useEffect(() => () => urls.forEach((u) => URL.revokeObjectURL(u)), [urls]);
  const [open, setOpen] = useState<number | null>(null);
  const items: GalleryImage[] = images.map((img, i) => ({
    url: urls[i]!,
    mimeType: img.mimeType,
    size: img.size,
  }));
  return (
    <div className="gallery" data-testid="gallery" role="list" aria-label={`Images from ${label}`}>
      {items.map((img, i) => (
        <button
          key={img.url}
          type="button"
          role="listitem"
          className="thumb"
          onClick={() => setOpen(i)}
          aria-label={`Open image ${i + 1} of ${items.length}`}
        >
          <img src={img.url} alt={`Result image ${i + 1}`} />
        </button>
      ))}
      {open !== null && (
        <Lightbox images={items} index={open} onIndex={setOpen} onClose={() => setOpen(null)} name={label} />
      )}
    </div>
  );
}
