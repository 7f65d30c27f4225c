import { renderWithProviders, testUser } from '@avatar-studio/shared/testing';
import { configure, screen } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import App from '../App';
import { manifest } from '../manifest';

const { navigation } = manifest;

configure({ asyncUtilTimeout: 5000 });

const admin = testUser({ staff: { staff_id: 1, role: 'admin' } });

function renderAt(route: string) {
  return renderWithProviders(
    <Routes>
      <Route path="/admin/*" element={<App />} />
    </Routes>,
    {
      user: admin,
      route,
      routes: {
        'GET /api/staff/admin/all': { body: { staff: [], total: 0, page: 1, limit: 10 } },
        'GET /api/appconfig/admin': { body: { config: [] } },
      },
    },
  );
}

describe('admin routes of staff and settings', () => {
  it('serves Staff at /admin/staff', async () => {
    renderAt('/admin/staff');
    expect(await screen.findByRole('heading', { name: 'Staff' })).toBeInTheDocument();
    expect(await screen.findByText('No staff members found.')).toBeInTheDocument();
  });

  it('serves Settings at /admin/settings', async () => {
    renderAt('/admin/settings');
    expect(await screen.findByRole('heading', { name: 'Settings' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Super Fetch' })).toBeInTheDocument();
  });

  it('lists both in the admin menu for staff admins only', () => {
    const entries = navigation.filter((e) => e.menu === 'admin');
    expect(entries.map((e) => [e.path, e.permission])).toEqual(
      expect.arrayContaining([
        ['/admin/staff', 'staff.manage'],
        ['/admin/settings', 'appconfig.edit'],
      ]),
    );
  });
});
