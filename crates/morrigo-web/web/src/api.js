// The JSON API of `morrigo serve` (see /api/openapi.yaml).

export class ApiError extends Error {
  constructor(status, body) {
    const e = (body && body.error) || {};
    super(e.text || e.message || `HTTP ${status}`);
    this.status = status;
    this.body = body;
    this.diagnostic = e;
  }
}

export async function call(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) {
    opts.headers["content-type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const res = await fetch(path, opts);
  let data = null;
  try {
    data = await res.json();
  } catch (_) {
    data = null;
  }
  if (!res.ok) throw new ApiError(res.status, data);
  return data;
}

export const get = (path) => call("GET", path);
export const post = (path, body) => call("POST", path, body);
export const del = (path) => call("DELETE", path);
