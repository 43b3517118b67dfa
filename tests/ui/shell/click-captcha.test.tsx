// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import enCaptcha from '../../../locales/en/common/captcha.json';
import { ClickCaptcha } from '../../../src/client/components/ClickCaptcha.js';
import { createTranslate } from '../../../src/client/i18n/translate.js';
import { fail, http, imagesRenderedAt, ok, PUZZLE, testClient } from './support.js';

const server = setupServer();
const translate = createTranslate(enCaptcha);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanup();
  server.resetHandlers();
  vi.restoreAllMocks();
});
afterAll(() => server.close());

describe('click captcha', () => {
  it('shows the puzzle and the targets to click in order', async () => {
    server.use(http.get('/api/common/clickCaptcha', () => ok(PUZZLE)));
    const { client } = testClient();
    render(<ClickCaptcha client={client} translate={translate} onSuccess={vi.fn()} onClose={vi.fn()} />);
    expect(await screen.findByRole('img', { name: 'Click captcha' })).toHaveProperty('src', PUZZLE.base64);
    expect(screen.getByRole('dialog').textContent).toContain('Please click in order: <circle> <triangle>');
  });

  it('sends the click offsets inside the rendered image and its rendered size, then hands them over', async () => {
    let checked: unknown;
    let requestedId: string | null = null;
    server.use(
      http.get('/api/common/clickCaptcha', ({ request }) => {
        requestedId = new URL(request.url).searchParams.get('id');
        return ok({ ...PUZZLE, id: requestedId });
      }),
      http.post('/api/common/checkClickCaptcha', async ({ request }) => {
        checked = await request.json();
        return ok(null, 'Verification is successful!');
      }),
    );
    // Drawn at half size, 100 px from the left and 50 px from the top of the viewport.
    imagesRenderedAt({ left: 100, top: 50, width: 175, height: 100 });
    const onSuccess = vi.fn();
    const { client } = testClient();
    render(<ClickCaptcha client={client} translate={translate} onSuccess={onSuccess} onClose={vi.fn()} successDelay={0} />);
    const image = await screen.findByRole('img', { name: 'Click captcha' });
    fireEvent.click(image, { clientX: 110, clientY: 60 });
    expect(checked).toBeUndefined();
    fireEvent.click(image, { clientX: 200.4, clientY: 139.6 });

    await waitFor(() => expect(onSuccess).toHaveBeenCalledTimes(1));
    expect(requestedId).toMatch(/^[0-9a-f-]{36}$/);
    expect(checked).toEqual({ id: requestedId, info: '10,10-100,90;175;100', unset: false });
    expect(onSuccess).toHaveBeenCalledWith({ captchaId: requestedId, captchaInfo: '10,10-100,90;175;100' });
    expect(screen.getByRole('status').textContent).toBe('Verification is successful!');
  });

  it('on a miss shows the server message and brings a new puzzle', async () => {
    let puzzles = 0;
    server.use(
      http.get('/api/common/clickCaptcha', () => {
        puzzles += 1;
        return ok({ ...PUZZLE, id: `p${puzzles}`, text: puzzles === 1 ? ['<circle>', '<triangle>'] : ['<star>', '<square>'] });
      }),
      http.post('/api/common/checkClickCaptcha', () => fail('The correct area is not clicked, please try again!')),
    );
    imagesRenderedAt({ left: 0, top: 0, width: 350, height: 200 });
    const onSuccess = vi.fn();
    const { client, notify } = testClient();
    render(<ClickCaptcha client={client} translate={translate} onSuccess={onSuccess} onClose={vi.fn()} />);
    const image = await screen.findByRole('img', { name: 'Click captcha' });
    fireEvent.click(image, { clientX: 1, clientY: 1 });
    fireEvent.click(image, { clientX: 2, clientY: 2 });

    expect(await screen.findByText('The correct area is not clicked, please try again!')).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('dialog').textContent).toContain('<star> <square>'));
    expect(puzzles).toBe(2);
    expect(onSuccess).not.toHaveBeenCalled();
    // Shown in the panel, not as a toast as well.
    expect(notify).not.toHaveBeenCalled();
  });

  it('the refresh button loads a new puzzle and Escape closes', async () => {
    let puzzles = 0;
    server.use(http.get('/api/common/clickCaptcha', () => ok({ ...PUZZLE, id: `p${++puzzles}` })));
    const onClose = vi.fn();
    const { client } = testClient();
    render(<ClickCaptcha client={client} translate={translate} onSuccess={vi.fn()} onClose={onClose} />);
    await screen.findByRole('img', { name: 'Click captcha' });
    fireEvent.click(screen.getByRole('button', { name: 'New puzzle' }));
    await waitFor(() => expect(puzzles).toBe(2));
    fireEvent.keyDown(window, { key: 'Escape' });
    expect(onClose).toHaveBeenCalled();
  });
});
