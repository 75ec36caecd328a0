import { createAuthorizedRequests } from '../../lib/http/authorizedRequest.ts';
import { productServices } from './services.ts';

/**
 * Uploads and downloads as the page's caller: the signed-in account, or on the embedded chat's page
 * its visitor (a module apart: the login page never needs it).
 */
export const { authorizedRequest, fetchBlob, downloadFile } = createAuthorizedRequests(async (service) => {
  const { config, caller } = productServices();
  return {
    baseUrl: service === 'chats' ? config.chatsManagerUrl : config.accountManagerUrl,
    context: await caller.context(),
  };
});
