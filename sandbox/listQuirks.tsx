/**
 * Deviations a real service may show in its list order, switched on by tests. `sort_by` and
 * `sort` apply only "where supported" (docs/api.md#paging); a service that does not support them
 * answers in its default order (created_at descending) without an error.
 */
export interface ListQuirks {
	/** GET /tickets ignores `sort_by` and `sort`: always created_at descending (cursors still work). */
	ignoreSortBy?: boolean;
	/** GET /tickets/{id}/replies lists oldest first, as many conversation views do (the order is not given). */
	repliesOldestFirst?: boolean;
	/**
	 * `sort_by=created_at` and `sort` on GET /customers and GET /tickets/{id}/replies: accepted and
	 * ignored, or honoured; unset, they are refused (400 invalid_parameter).
	 */
	pageListSort?: 'ignore' | 'honour';
}
