// The `{error}` texts any API may answer with, whatever the feature: apart from the server modules, so that a page
// showing one can recognise it and say it in its own language.

/** 503 while the database cannot be reached: the client may try again. */
export const DATABASE_UNAVAILABLE_MESSAGE = "The shop is briefly unavailable. Please try again in a minute.";

/** 500 for anything unexpected; the details go to the log only. */
export const INTERNAL_ERROR_MESSAGE = "Internal error";

/** What a page's thrown 503 carries when a change was undone (its audit entry failed), so the page says nothing changed. */
export const CHANGE_UNDONE = "change-undone";
