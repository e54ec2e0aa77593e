// Images from a tool result in a grid; a click (or Enter) opens the lightbox.
import { useEffect, useRef, useState } from 'react';
import { blobUrl } from '../lib/media';
import { Lightbox, type GalleryImage } from './Lightbox';

export interface ImageData {
  base64: string;
  mimeType: string;
  size: number;
}

/** An image as a conversation keeps it (base64 `data`), as the gallery shows it. */
export const imageData = (i: { data: string; mimeType: string }): ImageData => ({
  base64: i.data,
  mimeType: i.mimeType,
  size: Math.floor((i.data.length * 3) / 4),
});

/**
 * One blob: URL per image, decoded once while the images' data stays the same: a card shown again (a new
 * array of the same images, as every render of a saved step makes) keeps its URLs.
 */
function useBlobUrls(images: ImageData[]): string[] {
  const held = useRef<{ data: ImageData[]; urls: string[] } | null>(null);
  const same =
    held.current?.data.length === images.length &&
    held.current.data.every((d, i) => d.base64 === images[i]!.base64 && d.mimeType === images[i]!.mimeType);
  if (!same) held.current = { data: images, urls: images.map((i) => blobUrl(i.base64, i.mimeType)) };
  const urls = held.current!.urls;
  useEffect(() => () => urls.forEach((u) => URL.revokeObjectURL(u)), [urls]);
  return urls;
}

export function Gallery({ images, label }: { images: ImageData[]; label: string }) {
  const urls = useBlobUrls(images);
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
