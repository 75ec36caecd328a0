import { screen } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadTestTexts, renderWithProviders } from '../test/render.tsx';
import { ErrorPage } from './ErrorPage.tsx';

beforeAll(async () => {
  await loadTestTexts();
});

describe('ErrorPage', () => {
  it('shows 404 as "Página não encontrada" with the permission hint', () => {
    renderWithProviders(<ErrorPage statusCode={404} />);
    expect(screen.getByText('404')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Página não encontrada' })).toBeTruthy();
    expect(screen.getByText(/não existe ou você não tem permissão/)).toBeTruthy();
  });

  it('shows any other status as "Ocorreu um erro"', () => {
    renderWithProviders(<ErrorPage statusCode={500} />);
    expect(screen.getByText('500')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Ocorreu um erro' })).toBeTruthy();
    expect(screen.getByText(/erro interno/)).toBeTruthy();
  });

  it('has a "Voltar" button to /', () => {
    renderWithProviders(<ErrorPage statusCode={403} />);
    expect(screen.getByRole('link', { name: 'Voltar' }).getAttribute('href')).toBe('/');
  });
});
