// A limit's Save button and the "Saved." it says once the value it shows is the one on disk (Settings > Limits).
export function SavedButton(props: { disabled: boolean; saved: boolean }) {
  return (
    <>
      <button type="submit" disabled={props.disabled}>
        Save
      </button>
      {props.saved && (
        <span className="ok-text" role="status">
          Saved.
        </span>
      )}
    </>
  );
}
