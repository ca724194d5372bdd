/**
 * How many product cards of a listing load with the page: its first row. The card grid
 * (.card-grid in static/css/components.css) has at most three columns, and at 1280 px that
 * row sits in the first screen; a card in view must not wait for a script, and one page
 * serves every width. Later cards load through partials/lazy-load, within 250 px of view.
 */
export const firstRowCards = 3;
