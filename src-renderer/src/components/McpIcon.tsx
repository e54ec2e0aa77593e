// A server's, tool's or prompt's icon (MCP 2025-11-25, "Icons"). The core hands over only data: URIs of
// raster images it checked (src-main/core/safety/icons.ts), so nothing here loads a server's URL; anything
// else is not shown. Decorative: the name beside it says what it is.
export function McpIcon({ src }: { src: string | undefined }) {
  if (!src || !/^data:image\/(png|jpeg|gif|webp);base64,/.test(src)) return null;
  return <img className="mcp-icon" src={src} alt="" width={16} height={16} draggable={false} />;
}
