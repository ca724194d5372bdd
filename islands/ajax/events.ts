/**
 * Fired (bubbling) on a form with data-ajax-trigger="input" once an answer was put into
 * its targets, so an island that owns them (the support search's listbox) can take it
 * from there, also when the answer was empty and nothing in the page changed.
 */
export const ajaxUpdatedEvent = "fotohoek:ajax-updated";
