// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { OutcomeAlerts } from '../../../src/client/member/pages/common/OutcomeAlerts.js';

/** The success/failure pair the payout form and the points exchange show above themselves. */

afterEach(() => cleanup());

describe('a member form’s outcome', () => {
  it('announces a request that went through as a status, and one that failed as an alert', () => {
    const { rerender } = render(<OutcomeAlerts notice="Payout requested" />);
    expect(screen.getByRole('status').textContent).toBe('Payout requested');
    expect(screen.queryByRole('alert')).toBeNull();
    rerender(<OutcomeAlerts failure="Insufficient balance" />);
    expect(screen.getByRole('alert').textContent).toBe('Insufficient balance');
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('shows nothing before the member has sent anything', () => {
    const { container } = render(<OutcomeAlerts notice={undefined} failure="" />);
    expect(container.textContent).toBe('');
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
