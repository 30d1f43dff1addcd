const DOCS = 'https://github.com/n8n-nodes-support-ticket/n8n-nodes-support-ticket/blob/main/docs/';

/** A "More info" link to a page of docs/, where the detail behind a short description lives. */
export function moreInfo(page: string): string {
	return `<a href="${DOCS}${page}" target="_blank">More info</a>`;
}
