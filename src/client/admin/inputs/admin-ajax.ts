import { httpClient } from '../../http/index.js';

/** The attachment row `ajax/upload` answers with (docs/wire-contract.md#uploads); forms store `url`, screens show `full_url`. */
interface UploadedFile {
  id: number;
  url: string;
  full_url?: string;
  name: string;
  size: number;
  mimetype: string;
  suffix?: string;
  [column: string]: unknown;
}

/** `POST /admin/ajax/upload`, multipart field `file`, no timeout, progress in percent. */
export async function uploadFile(file: File, onProgress?: (percent: number) => void): Promise<UploadedFile> {
  const data = new FormData();
  data.append('file', file, file.name);
  const envelope = await httpClient.request<{ file: UploadedFile }>('/admin/ajax/upload', {
    method: 'POST',
    data,
    upload: true,
    onProgress,
  });
  return envelope.data.file;
}

export interface AreaOption {
  value: number | string;
  label: string;
}

/** `GET /admin/ajax/area`: provinces; with `province` its cities; with `province` and `city` its districts. */
export async function loadAreas(params: { province?: string; city?: string } = {}): Promise<AreaOption[]> {
  const query: Record<string, string> = {};
  if (params.province) query.province = params.province;
  if (params.province && params.city) query.city = params.city;
  const envelope = await httpClient.request<AreaOption[]>('/admin/ajax/area', { params: query });
  return Array.isArray(envelope.data) ? envelope.data : [];
}
