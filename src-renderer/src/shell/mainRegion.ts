// The page's main region by id: the skip link and the sidebar move focus to it (App.tsx).
export const MAIN_ID = 'main';
