// Text that reads like instructions to the model, in what a tool returned or a server described
// (docs/trust.md, "Results are data"). The model is told that a tool result is data (the delimited block of
// src-main/core/agent/resultFraming.ts); these signs are for the person: the tool card, `mooring mcp call`
// and `mooring chat` flag a result that holds one, so an injection attempt is seen, not only obeyed or not.
// A sign is a hint, never a verdict: plain text can match, and a rephrased injection can miss every one.
//
// The list, each a short documented pattern (case-insensitive):
//   ignore-instructions   "ignore / disregard / forget (all) (the) previous|prior|above instructions|rules"
//   new-instructions      "new instructions:", "system prompt:", "[system]", "<system>", "### instruction"
//   addressed-to-model    "you are now", "you must now", "as an AI (assistant)", "assistant:" at a line start,
//                         "note to the AI / assistant / model / LLM"
//   call-a-tool           "call / use / invoke / run the … tool", "pass / send / forward … to the … tool|server"
//   read-secrets          ".ssh/", "id_rsa", "id_ed25519", ".aws/credentials", ".env" file, "private key",
//                         "api key", "password", "token" next to "read|send|include|copy|paste"
//   exfiltrate            "send / post / upload / forward … to https?://", "append … to the url",
//                         "include … in the url|query|header"
//   hide-from-user        "do not tell / mention / show (this) to the user", "without telling the user",
//                         "the user must not know"

/** Scanned per result: a longer text is scanned in its first part only (signs, not a verdict). */
export const SCAN_CHARS = 200_000;

const SIGNS: readonly { id: string; label: string; re: RegExp }[] = [
  {
    id: 'ignore-instructions',
    label: 'tells the model to ignore its instructions',
    re: /\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+)?(?:of\s+)?(?:the\s+|your\s+)?(?:previous|prior|above|earlier|original|system)\s+(?:instructions?|rules|prompts?|directions)/i,
  },
  {
    id: 'new-instructions',
    label: 'carries new instructions or a system prompt',
    re: /(?:\bnew\s+instructions?\s*:|\bsystem\s+prompt\s*:|\[\s*system\s*\]|<\s*\/?\s*system\s*>|#{2,}\s*instructions?\b|\bIMPORTANT\s*:\s*(?:you|the (?:ai|assistant|model))\b)/i,
  },
  {
    id: 'addressed-to-model',
    label: 'addresses the model directly',
    re: /(?:\byou\s+are\s+now\b|\byou\s+must\s+now\b|\bas\s+an\s+ai(?:\s+assistant)?\b|^\s*assistant\s*:|\bnote\s+to\s+(?:the\s+)?(?:ai|assistant|model|llm|agent)\b|\b(?:dear|attention)\s+(?:ai|assistant|model|llm|agent)\b)/im,
  },
  {
    id: 'call-a-tool',
    label: 'asks for a tool call',
    re: /(?:\b(?:call|use|invoke|run|execute)\s+(?:the\s+)?[\w.-]{2,64}\s+tool\b|\b(?:pass|send|forward|give)\s+(?:it|its\s+content|the\s+(?:content|contents|result|output|file|text))\s+to\s+(?:the\s+)?[\w.-]{2,64}(?:'s)?\s+[\w.-]{0,64}\s*(?:tool|server)\b)/i,
  },
  {
    id: 'read-secrets',
    label: 'asks for secrets or key files',
    re: /(?:\.ssh\/|\bid_rsa\b|\bid_ed25519\b|\.aws\/credentials|\bprivate\s+key\b|\b(?:read|send|include|copy|paste|print|reveal)\b[^\n]{0,60}\b(?:api[\s_-]?key|password|secret|token|credentials?|\.env)\b)/i,
  },
  {
    id: 'exfiltrate',
    label: 'asks to send data to an address',
    re: /(?:\b(?:send|post|upload|forward|submit|exfiltrate)\b[^\n]{0,80}\bto\s+https?:\/\/|\bappend\b[^\n]{0,60}\bto\s+(?:the\s+)?url\b|\binclude\b[^\n]{0,60}\bin\s+(?:the\s+)?(?:url|query|header)\b)/i,
  },
  {
    id: 'hide-from-user',
    label: 'asks to hide something from the user',
    re: /(?:\bdo\s+not\s+(?:tell|mention|show|reveal|inform)\b[^\n]{0,30}\buser\b|\bwithout\s+(?:telling|informing|asking)\s+the\s+user\b|\bthe\s+user\s+(?:must|should)\s+not\s+(?:know|see)\b)/i,
  },
];

export interface InstructionSign {
  id: string;
  /** For a person: "tells the model to ignore its instructions". */
  label: string;
  /** The matched words (at most 80 characters), untrusted: escape where shown. */
  excerpt: string;
}

/** The signs of instructions to the model in a text, one per kind, in the list's order. */
export function instructionSigns(text: string): InstructionSign[] {
  const scanned = text.length > SCAN_CHARS ? text.slice(0, SCAN_CHARS) : text;
  const out: InstructionSign[] = [];
  for (const s of SIGNS) {
    const m = s.re.exec(scanned);
    if (m) out.push({ id: s.id, label: s.label, excerpt: m[0].trim().slice(0, 80) });
  }
  return out;
}

/** One line for a terminal or a card: "looks like instructions to the model: asks for a tool call; …". */
export function describeSigns(signs: readonly InstructionSign[]): string {
  return `looks like instructions to the model: ${signs.map((s) => `${s.label} ("${s.excerpt}")`).join('; ')}`;
}
