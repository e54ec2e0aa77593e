// A message an MCP App view sent to the conversation (`ui/message`) is the app's, never the person's:
// it is labelled with the server and the view it came from.
import { AppWindow } from 'lucide-react';
import type { AppOrigin } from '@shared/appViews';

export function AppMessageLabel(props: { app: AppOrigin }) {
  return (
    <div className="msg-app-label" data-testid="msg-app-label">
      <AppWindow size={14} aria-hidden /> Sent by the {props.app.server} app ({props.app.tool} view), not by
      you
    </div>
  );
}
