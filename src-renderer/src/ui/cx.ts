/** Joins class names, skipping the falsy ones: `cx('btn', primary && 'btn-primary')`. */
export const cx = (...names: (string | false | null | undefined)[]): string =>
  names.filter(Boolean).join(' ');
