/**
 * Which windows the rows of a batch decode belong to. Rows are the windows still being
 * decoded, in the order they were given; a window whose sequence has ended leaves, and the
 * rows after it move up. `leave` says which rows of the batch before stay, so that the
 * decoder's keys and values keep those rows only.
 */
export class BatchMembers {
  private rows: number[];

  constructor(windows: number) {
    this.rows = Array.from({ length: windows }, (_, i) => i);
  }

  /** The window of each row, in row order. */
  get windows(): readonly number[] {
    return this.rows;
  }

  /** The windows `ended` leave: the rows (indices into the batch before) that stay. */
  leave(ended: ReadonlySet<number>): number[] {
    const kept: number[] = [];
    this.rows.forEach((window, row) => {
      if (!ended.has(window)) kept.push(row);
    });
    this.rows = kept.map((row) => this.rows[row]!);
    return kept;
  }
}
