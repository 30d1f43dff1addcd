import type { IDataObject } from 'n8n-workflow';

/** Fields an error adds to its error item under Continue On Fail (the router builds the item). */
interface WithErrorItemFields {
	errorItemFields?: IDataObject;
}

export function withErrorItemFields<T>(error: T, fields: IDataObject): T {
	if (error instanceof Error) (error as WithErrorItemFields).errorItemFields = fields;
	return error;
}

export function errorItemFields(error: unknown): IDataObject {
	return (error as WithErrorItemFields | null)?.errorItemFields ?? {};
}
