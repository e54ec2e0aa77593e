// Text files attached to a message (the chat's composer): they reach the model inline, after the typed
// text, each in a fence named by its file and longer than any run of backticks inside it, so a file can
// never close its own block. The conversation's title comes from the typed text alone.
export interface AttachedTextFile {
  name: string;
  text: string;
}

export function messageWithFiles(text: string, files: readonly AttachedTextFile[]): string {
  const blocks = files.map((f) => {
    const longest = Math.max(2, ...(f.text.match(/`+/g) ?? []).map((r) => r.length));
    const fence = '`'.repeat(longest + 1);
    return `${f.name}:\n${fence}\n${f.text.replace(/\n$/, '')}\n${fence}`;
  });
  return [text.trim(), ...blocks].filter(Boolean).join('\n\n');
}
