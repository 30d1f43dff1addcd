/**
 * CPU cost of the package's signing code (nodes/shared), per call: signing one list request as the
 * credential does, and verifying one webhook delivery with 1 KB and 100 KB bodies. 200 ms warm-up
 * (which also sizes the rounds to about 60 ms), then 9 rounds; the median round counts.
 */
import { signRequestOptions } from '../nodes/shared/signing/signRequestOptions';
import {
	computeSignature,
	unixTimestamp,
	verifySignature,
} from '../nodes/shared/signing/signature';
import { median, type MicroResult } from './report';

/** `medianUs`: median over rounds of the mean time per call. */

const ROUNDS = 9;
const SECRET = 'sandbox-secret-with-some-length-0123456789';
const CURSOR =
	'eyJ2IjoxLCJrIjoiMjAyNS0wNi0wMVQxMjowMDowMC4wMDBaIiwicyI6OTk5MDB9.c2lnbmF0dXJlLXBhcnQtb2YtdGhlLWN1cnNvcg';

function measure(name: string, call: () => unknown): MicroResult {
	let calibration = 0;
	for (const warmUntil = performance.now() + 200; performance.now() < warmUntil; calibration++)
		call();
	const callsPerRound = Math.max(10, Math.round((calibration * 60) / 200));
	const perCallUs = Array.from({ length: ROUNDS }, () => {
		const started = process.hrtime.bigint();
		for (let i = 0; i < callsPerRound; i++) call();
		return Number(process.hrtime.bigint() - started) / 1e3 / callsPerRound;
	});
	return {
		name,
		medianUs: median(perCallUs),
		minUs: Math.min(...perCallUs),
		maxUs: Math.max(...perCallUs),
		callsPerRound,
		rounds: ROUNDS,
	};
}

/** A genuinely signed webhook delivery with a JSON body of exactly `bytes` bytes: verifying it must succeed. */
function verifyDelivery(bytes: number): () => boolean {
	const [head, tail] = ['{"id":"evt_1","event":"ticket.created","data":{"description":"', '"}}'];
	const body = Buffer.from(head + 'x'.repeat(bytes - head.length - tail.length) + tail);
	const [nowMs, method, pathWithQuery] = [Date.now(), 'POST', '/webhook/5c2a9d1e-support-ticket'];
	const timestamp = unixTimestamp(nowMs);
	const delivery = {
		secret: SECRET,
		timestamp,
		signature: computeSignature(SECRET, { timestamp, method, pathWithQuery, body }),
		method,
		pathWithQuery,
		body,
		nowMs,
	};
	return () => {
		if (!verifySignature(delivery).valid)
			throw new Error('a genuinely signed delivery was rejected');
		return true;
	};
}

export function measureSigningCosts(): MicroResult[] {
	const listPage = {
		method: 'GET',
		baseURL: 'http://127.0.0.1:4010',
		url: '/api/v1/external/tickets',
		qs: { per_page: 100, cursor: CURSOR },
		json: true,
	} as const;
	const credentials = { apiKey: 'sandbox-key', apiSecret: SECRET };
	return [
		measure(
			'sign one list request as the credential does: signRequestOptions (GET, qs with cursor)',
			() => signRequestOptions(listPage, credentials, Date.now()),
		),
		measure('verify one webhook delivery, 1 KB body: verifySignature', verifyDelivery(1024)),
		measure(
			'verify one webhook delivery, 100 KB body: verifySignature',
			verifyDelivery(100 * 1024),
		),
	];
}
