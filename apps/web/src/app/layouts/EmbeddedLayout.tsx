import { QueryClientProvider } from '@tanstack/react-query';
import { Outlet } from 'react-router';
import { queryClient } from '../queryClient.ts';
import classes from './EmbeddedLayout.module.css';

/** The embedded layout: a compact frame for the chat inside another site's iframe (the page has its header). */
export default function EmbeddedLayout() {
  return (
    <QueryClientProvider client={queryClient}>
      <main className={classes.frame}>
        <Outlet />
      </main>
    </QueryClientProvider>
  );
}
