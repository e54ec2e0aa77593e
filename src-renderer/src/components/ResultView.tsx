// A normalised tool result rendered natively (ARCHITECTURE.md, `catalog/`: result normalisation): text, structured JSON, images in a gallery,
// resource links and embedded resources; nothing the host does not know silently vanishes. The parts keep
// the server's order: images next to each other share one gallery, where the first of them stood.
import type { WirePart, WireToolResult } from '@shared/wire';
import { Gallery, type ImageData } from './Gallery';
import { looksLikeMarkdown, Markdown } from './Markdown';

// Images and audio share one wire shape; only images are folded into a gallery.
type ImagePart = Extract<WirePart, { kind: 'image' | 'audio' }>;
type Piece = { part: WirePart; at: number } | { images: ImagePart[]; at: number };

/** The parts in order, each run of images folded into one piece. */
export function resultPieces(parts: WirePart[]): Piece[] {
  const pieces: Piece[] = [];
  parts.forEach((part, at) => {
    const last = pieces[pieces.length - 1];
    if (part.kind !== 'image') pieces.push({ part, at });
    else if (last && 'images' in last) last.images.push(part);
    else pieces.push({ images: [part], at });
  });
  return pieces;
}

export function ResultView({ result, label }: { result: WireToolResult; label: string }) {
  // Structured content that only restates the text adds nothing to read: it is left out (the model read
  // it once, too); a mismatch with the schema is always shown.
  const valid = result.structuredValidation?.valid !== false;
  const pieces = resultPieces(result.parts);
  const galleries: Piece[] = pieces.filter((p) => 'images' in p);
  return (
    <div className={`result${result.isError ? ' is-error' : ''}`} data-testid="tool-result">
      {result.isError && <p className="danger-text">The tool reported an error.</p>}
      {pieces.map((piece) => {
        const i = piece.at;
        // Two or more galleries in one result are told apart by their names ("get-image, images 2").
        const n = galleries.indexOf(piece);
        if ('images' in piece)
          return (
            <Gallery
              key={i}
              images={piece.images satisfies ImageData[]}
              label={galleries.length > 1 ? `${label}, images ${n + 1}` : label}
            />
          );
        const p = piece.part;
        switch (p.kind) {
          case 'text':
            return looksLikeMarkdown(p.text) ? (
              <Markdown key={i} text={p.text} testId="result-markdown" />
            ) : (
              <pre key={i} className="result-text">
                {p.text}
              </pre>
            );
          case 'audio':
            return <audio key={i} controls src={`data:${p.mimeType};base64,${p.base64}`} />;
          case 'resource_link':
            return (
              <p key={i} className="resource">
                🔗 {p.title ?? p.name} <code>{p.uri}</code>
              </p>
            );
          case 'resource':
            return (
              <details key={i} className="resource">
                <summary>
                  Resource <code>{p.uri}</code>
                </summary>
                {p.text !== undefined ? (
                  <pre>{p.text}</pre>
                ) : (
                  <p className="muted">
                    {p.size ?? 0} bytes of {p.mimeType ?? 'data'}
                  </p>
                )}
              </details>
            );
          case 'unknown':
            return (
              <p key={i} className="muted">
                (a “{p.type}” block this version cannot show)
              </p>
            );
          default:
            return null;
        }
      })}
      {result.structured !== undefined && !(result.structuredInText && valid) && (
        <details open className="structured" data-testid="structured-result">
          <summary>
            Structured result
            {result.structuredValidation?.valid === false ? ' (does not match the schema)' : ''}
          </summary>
          <pre>{JSON.stringify(result.structured, null, 2)}</pre>
        </details>
      )}
    </div>
  );
}
