// The terminal commands that do what the screen does, at its foot: the app teaches the CLI.
import { Terminal } from 'lucide-react';

export function CliHint({ commands }: { commands: string[] }) {
  return (
    <p className="cli-hint">
      <Terminal size={14} aria-hidden />
      <span>From a terminal:</span>
      {commands.map((c) => (
        <code key={c}>{c}</code>
      ))}
    </p>
  );
}
