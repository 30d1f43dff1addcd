import { listSearch, useSandbox } from '../../../harness';
import { NODE } from '../../supportTicketNode';

const { sandbox, credentials: supportTicketApi } = useSandbox({ seed: 250 });
const credentials = { supportTicketApi };

describe('"From list" pickers', () => {
	it('page through tickets by cursor as the user scrolls, each page once', async () => {
		const seen: string[] = [];
		let token: string | undefined;
		for (let page = 0; page < 10; page++) {
			const result = await listSearch(NODE, 'searchTickets', credentials, undefined, token);
			seen.push(...result.results.map((r) => String(r.value)));
			token = result.paginationToken as string | undefined;
			if (!token) break;
		}
		expect(seen).toEqual(sandbox.store.listTickets().map((t) => t.id));
		expect(sandbox.log).toHaveLength(3);
		expect(sandbox.log.every((e) => e.status === 200)).toBe(true);
	});

	it('filter the loaded page by the typed text, on subject or id', async () => {
		const ticket = sandbox.store.listTickets()[5];
		const result = await listSearch(NODE, 'searchTickets', credentials, ticket.id);
		expect(result.results.map((r) => r.value)).toContain(ticket.id);
		expect(
			result.results.every(
				(r) => r.name.toLowerCase().includes(ticket.id) || String(r.value).includes(ticket.id),
			),
		).toBe(true);
	});

	it('a typed filter finds a match beyond the first page, reading on in one call', async () => {
		const oldest = sandbox.store.listTickets().at(-1);
		if (!oldest) throw new Error('no tickets');
		sandbox.store.updateTicket(oldest.id, { subject: 'The Zebra printer' });
		sandbox.clearLog();
		const result = await listSearch(NODE, 'searchTickets', credentials, ' zebra PRINTER ');
		expect(result.results).toEqual([
			{ name: `The Zebra printer (${oldest.id})`, value: oldest.id },
		]);
		expect(sandbox.log.map((e) => e.status)).toEqual([200, 200, 200]);
	});

	it('a typed filter that matches nothing says so after reading the whole list, not after the first page', async () => {
		const result = await listSearch(NODE, 'searchTickets', credentials, 'no ticket is called this');
		expect(result.results).toEqual([]);
		expect(result.paginationToken).toBeUndefined();
		expect(sandbox.log).toHaveLength(3);
	});

	it('list customers with name and e-mail', async () => {
		const result = await listSearch(NODE, 'searchCustomers', credentials);
		const first = sandbox.store.listCustomers()[0];
		expect(result.results[0]).toEqual({
			name: first.name ? `${first.name} <${first.email}>` : first.email,
			value: first.id,
		});
	});
});
