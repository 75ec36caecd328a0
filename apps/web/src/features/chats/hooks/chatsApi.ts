import { productServices } from '../../auth/index.ts';
import { type ChatsApi, createChatsApi } from '../api.ts';

/** The chats manager client over the session's `chatsHttp`. */
export function chatsApi(): ChatsApi {
  return createChatsApi(productServices().chatsHttp);
}
