/**
 * Deviations a real service may show in its list order, switched on by tests of the poll
 * trigger. `sort_by` and `sort` apply only "where supported" (docs/api.md#paging); a service that does
 * not support them answers in its default order (created_at descending) without an error.
 */
export interface ListQuirks {
	/** GET /tickets ignores `sort_by` and `sort`: always created_at descending (cursors still work). */
	ignoreSortBy?: boolean;
	/** GET /tickets/{id}/replies lists oldest first, as many conversation views do (the order is not given). */
	repliesOldestFirst?: boolean;
}
