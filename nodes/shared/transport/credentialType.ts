/**
 * The credential type every node reads and signs with; saved workflows refer to it by this name.
 */
export const CREDENTIAL_TYPE = 'supportTicketApi';
