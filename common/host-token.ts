/** Where a browser tab served by `strata host` keeps the run's token (sessionStorage), shared by the renderer and the host's re-enter page. */
export const HOST_TOKEN_STORAGE_KEY = 'strata.hostToken';
